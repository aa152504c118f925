module example.com/lockfree

go 1.26
