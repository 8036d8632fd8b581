package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRankLadder(t *testing.T) {
	row := func(id string, points, tournaments int) LadderRow {
		return LadderRow{PlatformID: id, Points: points, Tournaments: tournaments}
	}
	ranks := func(rows []RankedRow) []int {
		out := []int{}
		for _, r := range rows {
			out = append(out, r.Rank)
		}
		return out
	}
	for _, c := range []struct {
		name string
		rows []LadderRow
		want []int
	}{
		{"Empty", nil, []int{}},
		{"AllDifferent", []LadderRow{row("a", 100, 1), row("b", 70, 1), row("c", 50, 2)}, []int{1, 2, 3}},
		{"EqualPointsShareARank", []LadderRow{row("a", 100, 1), row("b", 70, 2), row("c", 70, 1), row("d", 50, 1)}, []int{1, 2, 2, 4}},
		{"TiedAtTheTop", []LadderRow{row("a", 10, 1), row("b", 10, 1), row("c", 10, 1)}, []int{1, 1, 1}},
		{"TwoTies", []LadderRow{row("a", 9, 1), row("b", 9, 1), row("c", 5, 1), row("d", 5, 1), row("e", 1, 1)}, []int{1, 1, 3, 3, 5}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := RankLadder(c.rows)
			assert.Equal(t, c.want, ranks(got))
			for i := range got {
				assert.Equal(t, c.rows[i], got[i].LadderRow, "the order is kept")
			}
		})
	}
}
