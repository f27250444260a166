module example.com/goroutine-per-line

go 1.21
