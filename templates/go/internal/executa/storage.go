package executa

import (
	"context"
	"encoding/json"
	"fmt"
)

// StorageOptions are the optional fields of the storage calls; each call reads the ones
// that apply to it. The zero value sends no scope (the host's default, "app", applies) and no
// conditions.
type StorageOptions struct {
	// Scope is "tool" (private to this user and plugin), "user" (the user's drive, shared by
	// every plugin they grant) or "app" (shared by the installs of one Anna App); "" sends none.
	Scope string `json:"scope,omitempty"`
	// IfMatch makes StorageSet and StorageDelete conditional on the key's current etag.
	IfMatch string `json:"if_match,omitempty"`
	// TTLSeconds makes a StorageSet value expire.
	TTLSeconds int `json:"ttl_seconds,omitempty"`
	// Prefix, Cursor, Limit and Kind ("kv" or "file") page and filter StorageList.
	Prefix string `json:"prefix,omitempty"`
	Cursor string `json:"cursor,omitempty"`
	Limit  int    `json:"limit,omitempty"`
	Kind   string `json:"kind,omitempty"`
}

// StorageItem is a storage/get result; a missing key is Exists false, not an error.
type StorageItem struct {
	HostResult
	Value  json.RawMessage `json:"value"`
	Etag   string          `json:"etag,omitempty"`
	Exists bool            `json:"exists"`
}

// StorageWrite is a storage/set result.
type StorageWrite struct {
	HostResult
	Etag       string `json:"etag"`
	Generation int64  `json:"generation"`
	SizeBytes  int64  `json:"size_bytes"`
	ExpiresAt  string `json:"expires_at,omitempty"` // with TTLSeconds
}

// StorageListing is a storage/list result; NextCursor is "" on the last page.
type StorageListing struct {
	HostResult
	Items      []json.RawMessage `json:"items"`
	NextCursor string            `json:"next_cursor"`
}

type storageParams struct {
	Key   string `json:"key,omitempty"`
	Value any    `json:"value,omitempty"`
	StorageOptions
}

// checkedScope is the scope to send ("" when not given: none is sent, and the host's default,
// "app", applies); another is the namespace's INVALID_REQUEST, raised before sending.
func (h *HostClient) checkedScope(method, scope string) (string, error) {
	switch scope {
	case "", "tool", "user", "app":
		return scope, nil
	}
	return "", h.invalid(method, fmt.Sprintf(`scope must be "tool", "user" or "app", got %s`, jsonQuote(scope)))
}

func (h *HostClient) storage(ctx context.Context, name string, params storageParams, out any) error {
	method := "storage/" + name
	scope, err := h.checkedScope(method, params.Scope)
	if err != nil {
		return err
	}
	params.Scope = scope
	return h.call(ctx, method, params, out)
}

// StorageGet reads a key (storage/get). It needs "aps.kv" in host_capabilities.
func (h *HostClient) StorageGet(ctx context.Context, key string, opts StorageOptions) (*StorageItem, error) {
	var item StorageItem
	if err := h.storage(ctx, "get", storageParams{Key: key, StorageOptions: StorageOptions{Scope: opts.Scope}}, &item); err != nil {
		return nil, err
	}
	return &item, nil
}

// StorageSet writes a key (storage/set); value is any JSON-encodable value. A value written
// with IfMatch fails with -32023 PRECONDITION_FAILED when the etag is not the current one.
func (h *HostClient) StorageSet(ctx context.Context, key string, value any, opts StorageOptions) (*StorageWrite, error) {
	if value == nil {
		value = json.RawMessage("null")
	}
	params := storageParams{Key: key, Value: value, StorageOptions: StorageOptions{Scope: opts.Scope, IfMatch: opts.IfMatch, TTLSeconds: opts.TTLSeconds}}
	var w StorageWrite
	if err := h.storage(ctx, "set", params, &w); err != nil {
		return nil, err
	}
	return &w, nil
}

// StorageDelete deletes a key (storage/delete); deleting a missing key is not an error.
func (h *HostClient) StorageDelete(ctx context.Context, key string, opts StorageOptions) (*Deleted, error) {
	var d Deleted
	if err := h.storage(ctx, "delete", storageParams{Key: key, StorageOptions: StorageOptions{Scope: opts.Scope, IfMatch: opts.IfMatch}}, &d); err != nil {
		return nil, err
	}
	return &d, nil
}

// StorageList lists keys (storage/list), one page at a time.
func (h *HostClient) StorageList(ctx context.Context, opts StorageOptions) (*StorageListing, error) {
	params := storageParams{StorageOptions: StorageOptions{Scope: opts.Scope, Prefix: opts.Prefix, Cursor: opts.Cursor, Limit: opts.Limit, Kind: opts.Kind}}
	var l StorageListing
	if err := h.storage(ctx, "list", params, &l); err != nil {
		return nil, err
	}
	if l.Items == nil {
		l.Items = []json.RawMessage{}
	}
	return &l, nil
}
