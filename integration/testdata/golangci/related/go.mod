module example.com/related

go 1.26
