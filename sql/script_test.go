package store

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSplitScript(t *testing.T) {
	cases := []struct {
		name   string
		script string
		want   []string
	}{
		{"Empty", "", nil},
		{"OnlyComments", "-- nothing here;\n/* nor; here */\n", nil},
		{"One", "CREATE TABLE a (x)", []string{"CREATE TABLE a (x)"}},
		{"OneWithSemicolon", "CREATE TABLE a (x);\n", []string{"CREATE TABLE a (x)"}},
		{"Two", "CREATE TABLE a (x);\nCREATE INDEX a_x ON a (x);", []string{"CREATE TABLE a (x)", "CREATE INDEX a_x ON a (x)"}},
		{"EmptyStatements", ";;CREATE TABLE a (x);;", []string{"CREATE TABLE a (x)"}},
		{"SemicolonInString", "INSERT INTO a VALUES ('x;y');SELECT 1", []string{"INSERT INTO a VALUES ('x;y')", "SELECT 1"}},
		{"DoubledQuote", "INSERT INTO a VALUES ('it''s;');SELECT 1", []string{"INSERT INTO a VALUES ('it''s;')", "SELECT 1"}},
		{"SemicolonInIdentifiers", `CREATE TABLE "a;b" ([c;d], ` + "`e;f`" + `);SELECT 1`,
			[]string{`CREATE TABLE "a;b" ([c;d], ` + "`e;f`" + `)`, "SELECT 1"}},
		{"SemicolonInComments", "SELECT 1 -- one; two\n;/* three; */SELECT 2", []string{"SELECT 1 -- one; two", "/* three; */SELECT 2"}},
		{"LeadingCommentKept", "-- the players\nCREATE TABLE p (x);", []string{"-- the players\nCREATE TABLE p (x)"}},
		{"UnterminatedComment", "SELECT 1; /* open", []string{"SELECT 1"}},
		{"Trigger", "CREATE TRIGGER t AFTER INSERT ON a BEGIN UPDATE b SET n = n + 1; DELETE FROM c; END;\nSELECT 1",
			[]string{"CREATE TRIGGER t AFTER INSERT ON a BEGIN UPDATE b SET n = n + 1; DELETE FROM c; END", "SELECT 1"}},
		{"TemporaryTriggerWithCase", "/* c */ CREATE TEMP TRIGGER IF NOT EXISTS t BEFORE DELETE ON a BEGIN SELECT CASE WHEN old.x THEN RAISE(ABORT, 'no;') END; END; SELECT 2",
			[]string{"/* c */ CREATE TEMP TRIGGER IF NOT EXISTS t BEFORE DELETE ON a BEGIN SELECT CASE WHEN old.x THEN RAISE(ABORT, 'no;') END; END", "SELECT 2"}},
		{"TriggerWordElsewhere", "CREATE TABLE trigger_log (x); BEGIN; SELECT 1", []string{"CREATE TABLE trigger_log (x)", "BEGIN", "SELECT 1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, splitScript(c.script))
		})
	}
}

// Every migration splits into statements none of which is empty or ends
// with a semicolon, and whose text, joined back, is the whole script's
// less separators.
func TestMigrationsSplit(t *testing.T) {
	squeeze := func(s string) string { return strings.Join(strings.Fields(strings.ReplaceAll(s, ";", " ")), " ") }
	for _, set := range []MigrationSet{DirectoryMigrations, ArenaMigrations} {
		for _, m := range set.Migrations() {
			assert.NotEmpty(t, m.Statements, m.Name)
			for _, s := range m.Statements {
				assert.NotEmpty(t, strings.TrimSpace(s), m.Name)
				assert.False(t, strings.HasSuffix(s, ";"), m.Name)
			}
			assert.Equal(t, squeeze(m.SQL), squeeze(strings.Join(m.Statements, " ")), m.Name)
		}
	}
}
