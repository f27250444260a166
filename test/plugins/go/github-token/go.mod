module example.com/github-token

go 1.21
