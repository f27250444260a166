module executa-go-extract

go 1.21
