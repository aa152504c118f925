module example.com/reach

go 1.26
