package store

import "strings"

// splitScript splits an SQL script (a migration) into its statements, for
// a remote database, whose server runs one statement per batch step. It
// runs once per migration when the migrations are read, never per query.
//
// It knows enough of SQLite's lexical rules for that: a semicolon inside
// a quoted string or identifier ('…', "…", `…`, […]) or a comment (-- to
// the end of the line, /* … */) ends nothing, and neither does one inside
// a trigger's body (CREATE [TEMP] TRIGGER … BEGIN … END, where CASE … END
// may nest). Each statement keeps its text, comments included, without
// the final semicolon; a piece holding only comments and space is no
// statement.
func splitScript(script string) []string {
	var out []string
	start := 0    // where the current statement begins
	code := false // the current statement has more than comments and space
	words := 0    // words the current statement holds
	// A CREATE TRIGGER statement, in its body (BEGIN … END, with CASE
	// depth), or past it.
	trigger, body, bodyDone, cases := false, false, false, 0
	for i := 0; i < len(script); i++ {
		c := script[i]
		switch {
		case c == '-' && i+1 < len(script) && script[i+1] == '-':
			for i < len(script) && script[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(script) && script[i+1] == '*':
			end := strings.Index(script[i+2:], "*/")
			if end < 0 {
				i = len(script)
			} else {
				i += 2 + end + 1
			}
		case c == '\'' || c == '"' || c == '`' || c == '[':
			code = true
			closing := c
			if c == '[' {
				closing = ']'
			}
			for i++; i < len(script); i++ {
				if script[i] == closing {
					if closing != ']' && i+1 < len(script) && script[i+1] == closing {
						i++ // a doubled quote stands for itself
						continue
					}
					break
				}
			}
		case c == ';':
			if trigger && !bodyDone {
				continue
			}
			if code {
				out = append(out, strings.TrimSpace(script[start:i]))
			}
			start, code, words = i+1, false, 0
			trigger, body, bodyDone, cases = false, false, false, 0
		case isWordByte(c):
			code = true
			j := i
			for j < len(script) && isWordByte(script[j]) {
				j++
			}
			w := script[i:j]
			i = j - 1
			words++
			switch {
			case words <= 4 && strings.EqualFold(w, "TRIGGER") && strings.EqualFold(firstWord(script[start:]), "CREATE"):
				trigger = true
			case !trigger || bodyDone:
			case !body && strings.EqualFold(w, "BEGIN"):
				body = true
			case body && strings.EqualFold(w, "CASE"):
				cases++
			case body && strings.EqualFold(w, "END"):
				if cases > 0 {
					cases--
				} else {
					body, bodyDone = false, true
				}
			}
		case c > ' ':
			code = true
		}
	}
	if code {
		out = append(out, strings.TrimSpace(script[start:]))
	}
	return out
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// firstWord returns the first word of s after space and comments.
func firstWord(s string) string {
	s = strings.TrimLeft(s, " \t\r\n")
	for strings.HasPrefix(s, "--") || strings.HasPrefix(s, "/*") {
		if strings.HasPrefix(s, "--") {
			if i := strings.IndexByte(s, '\n'); i >= 0 {
				s = s[i+1:]
			} else {
				s = ""
			}
		} else if i := strings.Index(s, "*/"); i >= 0 {
			s = s[i+2:]
		} else {
			s = ""
		}
		s = strings.TrimLeft(s, " \t\r\n")
	}
	j := 0
	for j < len(s) && isWordByte(s[j]) {
		j++
	}
	return s[:j]
}
