module example.com/system-info

go 1.21
