//go:build executa_no_http

package executa_test

// A binary built without net/http (`executa build` for a plugin whose host_capabilities
// unlock no upload) answers a PUT with an error that says why and what to do.

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"executa.test/runtime/internal/executa"
)

func TestWithoutNetHTTPAPutIsRefusedSayingHowToGetIt(t *testing.T) {
	host := executa.NewHostClient(func(_ context.Context, method string, _ json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{"upload_id":"u","put_url":"http://127.0.0.1:9/x","headers":{},"expires_at":"t"}`), nil
	})
	_, err := host.FilesUpload(context.Background(), "a.txt", []byte("hi"), executa.FilesOptions{})
	var hostErr *executa.HostError
	if !errors.As(err, &hostErr) || hostErr.Code != executa.CodeStorageUpstream {
		t.Fatalf("got %#v", err)
	}
	for _, want := range []string{"no HTTP client", "aps.files", "executa manifest"} {
		if !strings.Contains(hostErr.Message, want) {
			t.Fatalf("%q does not say %q", hostErr.Message, want)
		}
	}
}
