module example.com/app

go 1.26

require example.com/dep v0.0.0

replace example.com/dep => ../dep
