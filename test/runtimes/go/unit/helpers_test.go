package executa_test

// What the vectors cannot reach of the Go host-service helpers: Go values that JSON args
// cannot carry (NaN, cycles, funcs, structs), and the fake host of NewHostClient.

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"executa.test/runtime/internal/executa"
)

func TestWithDisplayCopiesDataAndSetsDisplay(t *testing.T) {
	data := map[string]any{"answer": 42}
	out, err := executa.WithDisplay(data, []any{map[string]any{"type": "text", "text": "hi"}})
	if err != nil {
		t.Fatal(err)
	}
	encoded, _ := json.Marshal(out)
	if string(encoded) != `{"_display":[{"text":"hi","type":"text"}],"answer":42}` {
		t.Fatalf("got %s", encoded)
	}
	if _, touched := data["_display"]; touched {
		t.Fatal("data itself was changed")
	}
}

func TestWithDisplayTakesAStructThroughItsJSONForm(t *testing.T) {
	type result struct {
		Count int    `json:"count"`
		Big   int64  `json:"big"`
		Note  string `json:"note,omitempty"`
	}
	out, err := executa.WithDisplay(&result{Count: 3, Big: 1<<53 + 1}, map[string]any{"type": "card"})
	if err != nil {
		t.Fatal(err)
	}
	encoded, _ := json.Marshal(out)
	if string(encoded) != `{"_display":{"type":"card"},"big":9007199254740993,"count":3}` {
		t.Fatalf("got %s", encoded)
	}
}

func TestWithDisplayRefusesWhatJSONCannotCarryNamingThePath(t *testing.T) {
	type block struct {
		Kind  string  `json:"kind"`
		Score float64 `json:"score"`
	}
	cycle := map[string]any{}
	cycle["self"] = cycle
	cases := []struct {
		name    string
		data    any
		display any
		want    string
	}{
		{"data not an object", []int{1}, []any{}, "WithDisplay: data must be an object (a map or a struct), got an array"},
		{"nil data", nil, []any{}, "WithDisplay: data must be an object (a map or a struct), got null"},
		{"display a string", map[string]any{}, "x", "WithDisplay: display must be an object or an array, got a string"},
		{"display nil", map[string]any{}, nil, "WithDisplay: display must be an object or an array, got null"},
		{"NaN", map[string]any{}, []any{map[string]any{"v": math.NaN()}}, "WithDisplay: display[0].v is NaN, which JSON cannot carry"},
		{"Inf in a struct field", map[string]any{}, []block{{"a", 1}, {"b", math.Inf(1)}}, "WithDisplay: display[1].score is +Inf, which JSON cannot carry"},
		{"a func", map[string]any{}, map[string]any{"f": func() {}}, "WithDisplay: display.f is a func(), which JSON cannot carry"},
		{"a channel", map[string]any{}, map[string]any{"c": make(chan int)}, "WithDisplay: display.c is a chan int, which JSON cannot carry"},
		{"a cycle", map[string]any{}, cycle, "WithDisplay: display.self refers back to itself (a cycle)"},
	}
	for _, c := range cases {
		_, err := executa.WithDisplay(c.data, c.display)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
		var hostErr *executa.HostError
		if errors.As(err, &hostErr) {
			t.Errorf("%s: a plain error, not a HostError", c.name)
		}
	}
}

func TestWithDisplayAllowsTheSameValueTwice(t *testing.T) {
	shared := map[string]any{"type": "divider"}
	if _, err := executa.WithDisplay(map[string]any{}, []any{shared, shared}); err != nil {
		t.Fatal(err) // repeated, not a cycle
	}
}

func TestAFakeHostsErrorIsNamedInTheMethodsNamespace(t *testing.T) {
	host := executa.NewHostClient(func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
		return nil, &executa.HostError{Code: executa.CodeStoragePreconditionFailed, Message: "etag moved"}
	})
	_, err := host.StorageSet(context.Background(), "k", 1, executa.StorageOptions{IfMatch: "e1"})
	var hostErr *executa.HostError
	if !errors.As(err, &hostErr) || hostErr.CodeName != "PRECONDITION_FAILED" || hostErr.Method != "storage/set" {
		t.Fatalf("got %#v", err)
	}
	if err.Error() != "storage/set failed: [-32023 PRECONDITION_FAILED] etag moved" {
		t.Fatalf("got %q", err.Error())
	}
}

func TestAFakeHostGetsTheParamsAndTheResultIsTyped(t *testing.T) {
	var seen map[string]any
	host := executa.NewHostClient(func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
		_ = json.Unmarshal(params, &seen)
		return json.RawMessage(`{"role":"assistant","content":{"type":"text","text":"{\"n\": 2}"},"model":"m","_meta":{"responseFormat":{"structuredValid":true}}}`), nil
	})
	schema := struct {
		Type string `json:"type"`
	}{"object"}
	result, err := host.Sample(context.Background(), executa.SampleRequest{
		Prompt:         "count",
		ResponseFormat: &executa.ResponseFormat{Type: "json_schema", JSONSchema: &executa.JSONSchema{Name: "count", Schema: schema}},
	})
	if err != nil {
		t.Fatal(err)
	}
	format, _ := json.Marshal(seen["responseFormat"])
	if string(format) != `{"json_schema":{"name":"count","schema":{"type":"object"},"strict":true},"type":"json_schema"}` {
		t.Fatalf("sent %s", format)
	}
	var parsed struct{ N int }
	if err := result.Decode(&parsed); err != nil || parsed.N != 2 || !result.StructuredValid || result.Text != `{"n": 2}` {
		t.Fatalf("got %+v, %v", result, err)
	}
	if !strings.Contains(string(result.Raw), `"_meta"`) {
		t.Fatalf("Raw is not the host's result: %s", result.Raw)
	}
}

func TestASchemaThatCannotBeJSONIsRefusedBeforeSending(t *testing.T) {
	host := executa.NewHostClient(func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
		t.Fatal("sent")
		return nil, nil
	})
	_, err := host.Sample(context.Background(), executa.SampleRequest{
		Prompt:         "x",
		ResponseFormat: &executa.ResponseFormat{Type: "json_schema", JSONSchema: &executa.JSONSchema{Name: "s", Schema: map[string]any{"maximum": math.NaN()}}},
	})
	var hostErr *executa.HostError
	if !errors.As(err, &hostErr) || hostErr.Code != executa.CodeSamplingInvalidRequest || !strings.Contains(hostErr.Message, "cannot be encoded as JSON") {
		t.Fatalf("got %v", err)
	}
}

func TestWithoutAResultThereIsNothingToDecode(t *testing.T) {
	host := executa.NewHostClient(func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{"content":{"type":"text","text":"{}"}}`), nil
	})
	result, err := host.Sample(context.Background(), executa.SampleRequest{Prompt: "x"})
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := result.Decode(&v); err == nil {
		t.Fatal("Decode without a response format succeeded")
	}
}

func TestAgentCompleteTakesNoResponseFormat(t *testing.T) {
	host := executa.NewHostClient(func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
		t.Fatal("sent")
		return nil, nil
	})
	_, err := host.AgentComplete(context.Background(), executa.SampleRequest{Prompt: "x", OnUnsupported: "text"})
	var hostErr *executa.HostError
	if !errors.As(err, &hostErr) || hostErr.Code != executa.CodeSamplingInvalidRequest || hostErr.Method != "agent/complete" {
		t.Fatalf("got %v", err)
	}
}

func TestOutsideAnInvokeEveryHelperIsNotNegotiated(t *testing.T) {
	host := executa.FromContext(context.Background()).Host
	_, err := host.Embed(context.Background(), []string{"x"}, "")
	var hostErr *executa.HostError
	if !errors.As(err, &hostErr) || hostErr.Code != executa.CodeEmbeddingsNotNegotiated || hostErr.CodeName != "NOT_NEGOTIATED" {
		t.Fatalf("got %v", err)
	}
}
