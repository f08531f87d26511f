module example.com/cirecipes

go 1.26
