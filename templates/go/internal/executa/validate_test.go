package executa

import (
	"encoding/json"
	"testing"
)

func testTool(t *testing.T, parameters string) *tool {
	t.Helper()
	m, err := parseManifest([]byte(`{"name":"t","version":"1.0.0","tools":[{"name":"x","parameters":` + parameters + `}]}`))
	if err != nil {
		t.Fatal(err)
	}
	return m.tools[0]
}

func TestCheckArgumentsFillsDefaultsInManifestOrder(t *testing.T) {
	tl := testTool(t, `[{"name":"b","type":"integer","required":false,"default":3},{"name":"a","type":"string"},{"name":"c","type":"array","required":false}]`)
	got, problems := checkArguments(tl, json.RawMessage(`{"a":"x","c":null}`))
	if problems != nil || string(got) != `{"b":3,"a":"x"}` {
		t.Fatalf("%s %v", got, problems)
	}
}

func TestCheckArgumentsRewritesWholeNumbersForGoInts(t *testing.T) {
	tl := testTool(t, `[{"name":"i","type":"integer"},{"name":"l","type":"array","items_type":"integer"}]`)
	got, problems := checkArguments(tl, json.RawMessage(`{"i":2.0,"l":[1e2,3]}`))
	if problems != nil || string(got) != `{"i":2,"l":[100,3]}` {
		t.Fatalf("%s %v", got, problems)
	}
	var args struct {
		I int
		L []int
	}
	if err := json.Unmarshal(got, &args); err != nil || args.I != 2 || args.L[0] != 100 {
		t.Fatalf("%+v %v", args, err)
	}
}

func TestCheckArgumentsReportsUnknownNamesInTheirOrder(t *testing.T) {
	tl := testTool(t, `[]`)
	_, problems := checkArguments(tl, json.RawMessage(`{"z":1,"a":2,"m":3}`))
	if len(problems) != 3 || problems[0].Parameter != "z" || problems[1].Parameter != "a" || problems[2].Parameter != "m" {
		t.Fatalf("%v", problems)
	}
}

func TestCheckArgumentsComparesEnumsByValue(t *testing.T) {
	tl := testTool(t, `[{"name":"n","type":"number","enum":[1,2.5]}]`)
	if _, problems := checkArguments(tl, json.RawMessage(`{"n":1.0}`)); problems != nil {
		t.Fatalf("%v", problems)
	}
	_, problems := checkArguments(tl, json.RawMessage(`{"n":3}`))
	if len(problems) != 1 || problems[0].Message != "must be one of: 1, 2.5" {
		t.Fatalf("%v", problems)
	}
}
