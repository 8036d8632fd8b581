package hrana

import (
	"database/sql/driver"
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// timeFormat is how a time.Time argument is sent: as text, in the layout
// the native SQLite driver (modernc.org/sqlite) writes by default, so a
// time stored remotely reads back as it would locally.
const timeFormat = "2006-01-02 15:04:05.999999999-07:00"

// encodeValue turns a driver value into its wire form. Booleans are
// integers 1 and 0, as SQLite stores them; a nil []byte is NULL.
func encodeValue(v driver.Value) (value, error) {
	switch x := v.(type) {
	case nil:
		return value{Type: "null"}, nil
	case int64:
		return value{Type: "integer", Value: strconv.FormatInt(x, 10)}, nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return value{}, fmt.Errorf("hrana: cannot send the float %v (JSON has no NaN or infinity)", x)
		}
		return value{Type: "float", Value: x}, nil
	case bool:
		if x {
			return value{Type: "integer", Value: "1"}, nil
		}
		return value{Type: "integer", Value: "0"}, nil
	case string:
		return value{Type: "text", Value: x}, nil
	case []byte:
		if x == nil {
			return value{Type: "null"}, nil
		}
		b := base64.RawStdEncoding.EncodeToString(x)
		return value{Type: "blob", Base64: &b}, nil
	case time.Time:
		return value{Type: "text", Value: x.Format(timeFormat)}, nil
	}
	return value{}, fmt.Errorf("hrana: unsupported argument type %T", v)
}

// decode turns a wire value into the driver value database/sql scans:
// int64, float64, string, []byte or nil.
func (v value) decode() (driver.Value, error) {
	switch v.Type {
	case "null":
		return nil, nil
	case "integer":
		s, ok := v.Value.(string)
		if !ok {
			return nil, fmt.Errorf("hrana: integer value %v is not a decimal string", v.Value)
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("hrana: bad integer value: %w", err)
		}
		return n, nil
	case "float":
		f, ok := v.Value.(float64)
		if !ok {
			return nil, fmt.Errorf("hrana: float value %v is not a number", v.Value)
		}
		return f, nil
	case "text":
		s, ok := v.Value.(string)
		if !ok {
			return nil, fmt.Errorf("hrana: text value %v is not a string", v.Value)
		}
		return s, nil
	case "blob":
		if v.Base64 == nil {
			return nil, fmt.Errorf("hrana: blob value without base64")
		}
		b, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(*v.Base64, "="))
		if err != nil {
			return nil, fmt.Errorf("hrana: bad blob value: %w", err)
		}
		return b, nil
	}
	return nil, fmt.Errorf("hrana: unknown value type %q", v.Type)
}
