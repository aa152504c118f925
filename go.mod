module github.com/fencecheck/fencecheck

go 1.26

require golang.org/x/tools v0.52.0 // indirect
