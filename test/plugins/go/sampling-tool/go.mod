module example.com/sampling-tool

go 1.21
