//go:build executa_no_http

package executa

import (
	"context"
	"errors"
)

// httpPut in a binary without net/http (and the TLS and crypto code it brings, about 1.5 MB):
// `executa build` builds so when manifest.json's host_capabilities unlock no method that PUTs
// bytes (host.upload, aps.files, aps.scope.admin), as the runtime then refuses those methods
// before any PUT. Only a fake host client (NewHostClient) gets here.
func httpPut(context.Context, string, map[string]string, []byte) (int, string, error) {
	return 0, "", errors.New("this binary has no HTTP client: `executa build` leaves it out when " +
		"host_capabilities grants no upload (host.upload, aps.files or aps.scope.admin); add one to " +
		"executa.json, run `executa manifest` and build again")
}
