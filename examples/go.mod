module example.com/fencecheck-examples

go 1.26
