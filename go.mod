module github.com/guardvet/guardvet

go 1.26.0

require (
	github.com/benbjohnson/immutable v0.4.3
	github.com/bmatcuk/doublestar/v4 v4.10.4
	github.com/creack/pty v1.1.24
	github.com/golangci/plugin-module-register v0.1.2
	github.com/pmezard/go-difflib v1.0.0
	github.com/sourcegraph/go-diff v0.10.0
	github.com/xeipuuv/gojsonschema v1.2.0
	go.uber.org/goleak v1.3.0
	golang.org/x/mod v0.42.0
	golang.org/x/term v0.47.0
	golang.org/x/tools v0.52.0
	gopkg.in/yaml.v3 v3.0.1
)

require (
	github.com/kr/text v0.2.0 // indirect
	github.com/stretchr/testify v1.11.1 // indirect
	github.com/xeipuuv/gojsonpointer v0.0.0-20180127040702-4e3ac2762d5f // indirect
	github.com/xeipuuv/gojsonreference v0.0.0-20180127040603-bd5ef7bd5415 // indirect
	golang.org/x/exp v0.0.0-20220518171630-0b5c67f07fdf // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
