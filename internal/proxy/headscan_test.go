package proxy

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// headByDecoding is what the proxy read of a message before readHead:
// json.Unmarshal into a head, the message JSON if json.Valid says so.
func headByDecoding(data []byte) (head, bool) {
	var h head
	if json.Unmarshal(data, &h) != nil && !json.Valid(data) {
		return head{}, false
	}
	return h, true
}

// headSeeds are messages whose heads are read: ordinary ones and those
// where encoding/json's rules show (folded and escaped keys, repeated
// members, values of the wrong type, bad JSON of each kind).
var headSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
	`{"jsonrpc":"2.0","id":"a-1","result":{"tools":[{"name":"x","n":-1.5e+3,"ok":true,"no":false,"z":null}]}}`,
	`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"bad"}}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"ID":7,"Method":"x","RESULT":1,"Error":null}`,
	`{"\u0069d":7,"m\u0065thod":"a\/b","re\u017Fult":{}}`,
	`{"ıd":7,"id\u212a":1,"method":"\u00e9\ud83d\ude00"}`,
	`{"method":5,"method":"later","id":1,"id":{"a" : [1, 2]}}`,
	`{"method":"first","method":null,"method":[1]}`,
	`{"method":"bad utf8 ` + "\xff\xfe" + `"}`,
	"{\"id\"\t:\r\n 3 ,\n\"method\" : \"m\" }  ",
	`{"result":null}`,
	`{}`, `[]`, `5`, `-0.0e-0`, `"s"`, `null`, `true`,
	`{"a":01}`, `{"a":1.}`, `{"a":-}`, `{"a":1e}`, `{"a":1e+}`, `{"a":.5}`,
	`{"a":"\x01"}`, `{"a":"\q"}`, `{"a":"\u12g4"}`, `{"a":tru}`, `{"a":nul}`,
	`{"a":1,}`, `{"a" 1}`, `{a:1}`, `{"a":1}}`, `{"a":[1,]}`, `{"a":[1}`, `{"id":1} x`,
	`{"id":1`, `{"method":"x`, `{"id":[`, ``, ` `,
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	`{"a":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`,
	`{"id":"` + strings.Repeat("k", 100) + `","` + strings.Repeat("l", 100) + `":1}`,
}

// The head read in one pass is the head encoding/json reads, and a
// message is JSON exactly when json.Valid says so.
func FuzzHeadScan(f *testing.F) {
	for _, s := range headSeeds {
		f.Add([]byte(s))
	}
	if data, err := os.ReadFile("testdata/tools-list.json"); err == nil {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, wantOK := headByDecoding(data)
		got, ok := readHead(data)
		if ok != wantOK || !sameHead(got, want) {
			t.Fatalf("%q: read %+v, %v; encoding/json reads %+v, %v", data, got, ok, want, wantOK)
		}
	})
}

func sameHead(a, b head) bool {
	return a.Method == b.Method && string(a.ID) == string(b.ID) && a.Result == b.Result && a.Error == b.Error
}
