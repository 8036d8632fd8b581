package core

import "fmt"

// GroupDraw is one group of a group stage as drawn: its name and its members
// in pot order (the member from the first pot first).
type GroupDraw struct {
	Name    string    `json:"name"`
	Members []Entrant `json:"members"`
}

// SnakeDraw deals entrants into groupCount groups by seed, snaking: pot 1
// goes A, B, C, ... and pot 2 comes back ..., C, B, A, so for 2 groups group A
// holds seeds 1, 4, 5, 8 and group B seeds 2, 3, 6, 7. Entrants are ordered
// by SeedOrder first, so unseeded entrants fill the last pots in
// registration order. Groups are named by GroupName.
//
// It returns an invalid_field error for a groupCount below 1 and a
// too_few_entrants error when a group would get fewer than 2 entrants.
func SnakeDraw(entrants []Entrant, groupCount int) ([]GroupDraw, error) {
	if groupCount < 1 {
		return nil, FieldError(CodeInvalidField, "groupCount")
	}
	if len(entrants) < 2*groupCount {
		return nil, &Error{
			Code:    CodeTooFewEntrants,
			Field:   "groupCount",
			Message: fmt.Sprintf("%d entrants cannot fill %d groups of at least 2", len(entrants), groupCount),
		}
	}
	groups := make([]GroupDraw, groupCount)
	perGroup := (len(entrants) + groupCount - 1) / groupCount
	for g := range groups {
		groups[g] = GroupDraw{Name: GroupName(g), Members: make([]Entrant, 0, perGroup)}
	}
	for i, e := range SeedOrder(entrants) {
		pot, pos := i/groupCount, i%groupCount
		if pot%2 == 1 {
			pos = groupCount - 1 - pos
		}
		groups[pos].Members = append(groups[pos].Members, e)
	}
	return groups, nil
}

// GroupName names the group at zero-based index i the way spreadsheets name
// columns: "A" to "Z", then "AA", "AB", and so on. It panics on a negative i.
func GroupName(i int) string {
	if i < 0 {
		panic("core: negative group index")
	}
	var name []byte
	for i++; i > 0; i = (i - 1) / 26 {
		name = append([]byte{byte('A' + (i-1)%26)}, name...)
	}
	return string(name)
}
