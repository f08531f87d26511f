module example.com/fixed

go 1.26
