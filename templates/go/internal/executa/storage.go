package executa

import (
	"context"
	"encoding/json"
)

// StorageOptions are the optional fields of the storage calls; each call reads the ones
// that apply to it. The zero value is the tool scope with no conditions.
type StorageOptions struct {
	// Scope is "tool" (private to this user and plugin; the default), "user" or "app".
	Scope string
	// IfMatch makes StorageSet and StorageDelete conditional on the key's current etag.
	IfMatch string
	// TTLSeconds makes a StorageSet value expire.
	TTLSeconds int
	// Prefix, Cursor, Limit and Kind ("kv" or "file") page and filter StorageList.
	Prefix string
	Cursor string
	Limit  int
	Kind   string
}

func (o StorageOptions) scope() string {
	if o.Scope == "" {
		return "tool"
	}
	return o.Scope
}

// StorageItem is a storage/get result; a missing key is Exists false, not an error.
type StorageItem struct {
	Value  json.RawMessage `json:"value"`
	Etag   string          `json:"etag"`
	Exists bool            `json:"exists"`
}

// StorageWrite is a storage/set result.
type StorageWrite struct {
	Etag       string `json:"etag"`
	Generation int64  `json:"generation"`
	SizeBytes  int64  `json:"size_bytes"`
}

// StorageListing is a storage/list result.
type StorageListing struct {
	Items      []json.RawMessage `json:"items"`
	NextCursor string            `json:"next_cursor"`
}

type storageParams struct {
	Key        string `json:"key,omitempty"`
	Value      any    `json:"value,omitempty"`
	Scope      string `json:"scope"`
	IfMatch    string `json:"if_match,omitempty"`
	TTLSeconds int    `json:"ttl_seconds,omitempty"`
	Prefix     string `json:"prefix,omitempty"`
	Cursor     string `json:"cursor,omitempty"`
	Limit      int    `json:"limit,omitempty"`
	Kind       string `json:"kind,omitempty"`
}

func (h *HostClient) storage(ctx context.Context, method string, params storageParams, out any) error {
	raw, err := h.Request(ctx, "storage/"+method, params)
	if err != nil || out == nil {
		return err
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return &HostError{Code: CodeInternalError, Message: "malformed result: " + err.Error(), Method: "storage/" + method}
	}
	return nil
}

// StorageGet reads a key (storage/get). It needs "aps.kv" in host_capabilities.
func (h *HostClient) StorageGet(ctx context.Context, key string, opts StorageOptions) (*StorageItem, error) {
	var item StorageItem
	err := h.storage(ctx, "get", storageParams{Key: key, Scope: opts.scope()}, &item)
	if err != nil {
		return nil, err
	}
	return &item, nil
}

// StorageSet writes a key (storage/set); value is any JSON-encodable value.
func (h *HostClient) StorageSet(ctx context.Context, key string, value any, opts StorageOptions) (*StorageWrite, error) {
	if value == nil {
		value = json.RawMessage("null")
	}
	var w StorageWrite
	err := h.storage(ctx, "set", storageParams{Key: key, Value: value, Scope: opts.scope(), IfMatch: opts.IfMatch, TTLSeconds: opts.TTLSeconds}, &w)
	if err != nil {
		return nil, err
	}
	return &w, nil
}

// StorageDelete deletes a key (storage/delete); deleting a missing key is not an error.
func (h *HostClient) StorageDelete(ctx context.Context, key string, opts StorageOptions) error {
	return h.storage(ctx, "delete", storageParams{Key: key, Scope: opts.scope(), IfMatch: opts.IfMatch}, nil)
}

// StorageList lists keys (storage/list), one page at a time.
func (h *HostClient) StorageList(ctx context.Context, opts StorageOptions) (*StorageListing, error) {
	var l StorageListing
	err := h.storage(ctx, "list", storageParams{Scope: opts.scope(), Prefix: opts.Prefix, Cursor: opts.Cursor, Limit: opts.Limit, Kind: opts.Kind}, &l)
	if err != nil {
		return nil, err
	}
	return &l, nil
}
