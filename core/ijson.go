package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"unicode/utf8"
)

// errNotIJSON says a text is not I-JSON (RFC 7493): not JSON, not valid
// UTF-8, an object with a member name twice, or a string with an unpaired
// surrogate escape. Two parsers may read such a text differently (which of
// two "winner" members counts), so attested bytes must be I-JSON.
var errNotIJSON = errors.New("core: not I-JSON")

// MaxResultDepth bounds the nesting of objects and arrays a result may
// have, the top-level object counting as one: the depth the reference
// clients accept (Go's encoding/json's own bound), so no result a client
// sends is refused for its depth alone.
const MaxResultDepth = 10000

// readIJSONObject reads text as one I-JSON object and returns its
// top-level members whose names are in want, undecoded (json.Number for
// numbers). It walks every value once, checking names at every depth.
func readIJSONObject(text string, want ...string) (map[string]any, error) {
	if !utf8.ValidString(text) || hasLoneSurrogateEscape(text) {
		return nil, errNotIJSON
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return nil, errNotIJSON
	}
	out := make(map[string]any, len(want))
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, errNotIJSON
		}
		name, _ := tok.(string)
		if seen[name] {
			return nil, errNotIJSON
		}
		seen[name] = true
		if !wanted(name, want) {
			if err := skipIJSONValue(dec, 1); err != nil {
				return nil, err
			}
			continue
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, errNotIJSON
		}
		switch v.(type) {
		case map[string]any, []any: // a reserved key's value is a scalar; a container is re-read for duplicates
			return nil, errNotIJSON
		}
		out[name] = v
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, errNotIJSON
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errNotIJSON
	}
	return out, nil
}

func wanted(name string, want []string) bool {
	for _, w := range want {
		if w == name {
			return true
		}
	}
	return false
}

// skipIJSONValue reads one value inside depth containers, refusing
// duplicate member names in any object within it and containers nested
// more than MaxResultDepth deep.
func skipIJSONValue(dec *json.Decoder, depth int) error {
	tok, err := dec.Token()
	if err != nil {
		return errNotIJSON
	}
	if (tok == json.Delim('{') || tok == json.Delim('[')) && depth+1 > MaxResultDepth {
		return errNotIJSON // depth containers enclose this one
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			name, err := dec.Token()
			if err != nil {
				return errNotIJSON
			}
			s, _ := name.(string)
			if seen[s] {
				return errNotIJSON
			}
			seen[s] = true
			if err := skipIJSONValue(dec, depth+1); err != nil {
				return err
			}
		}
		_, err = dec.Token()
	case json.Delim('['):
		for dec.More() {
			if err := skipIJSONValue(dec, depth+1); err != nil {
				return err
			}
		}
		_, err = dec.Token()
	}
	if err != nil {
		return errNotIJSON
	}
	return nil
}

// hasLoneSurrogateEscape reports whether a JSON text holds a \uXXXX escape
// of a surrogate that is not one half of a high-low pair. Go's decoder
// would turn it into U+FFFD, so it is looked for in the raw text. Raw
// UTF-8 cannot hold a surrogate at all (utf8.ValidString refuses it).
func hasLoneSurrogateEscape(text string) bool {
	inString := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		if !inString {
			inString = c == '"'
			continue
		}
		switch c {
		case '"':
			inString = false
		case '\\':
			if i+1 < len(text) && text[i+1] == 'u' {
				r, ok := hexEscape(text, i)
				if ok && r >= 0xDC00 && r <= 0xDFFF {
					return true
				}
				if ok && r >= 0xD800 && r <= 0xDBFF {
					low, ok := hexEscape(text, i+6)
					if !ok || low < 0xDC00 || low > 0xDFFF {
						return true
					}
					i += 6 // the pair's low half is read with it
				}
				i += 5
				continue
			}
			i++ // the escaped character
		}
	}
	return false
}

// hexEscape reads the \uXXXX escape at text[i:].
func hexEscape(text string, i int) (rune, bool) {
	if i+6 > len(text) || text[i] != '\\' || text[i+1] != 'u' {
		return 0, false
	}
	n, err := strconv.ParseUint(text[i+2:i+6], 16, 16)
	return rune(n), err == nil
}
