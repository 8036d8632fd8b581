package core

// seatByes resolves a drawn plan's byes: a bye is no result, it is part of
// the draw. The player a bye match seats against nobody is its winner and
// takes the seat its WinnerTo points at, so the plan comes back with those
// seats filled (the store keeps byes resolved, with their winners seated).
// What a decided match does to the bracket (its winner's and loser's
// seats, a grand final's reset) is the decision's SQL: seat_winner,
// seat_loser and insert_grand_final_reset in sql/queries/decided.sql.
func seatByes(plan BracketPlan) BracketPlan {
	index := make(map[string]int, len(plan.Matches))
	for i := range plan.Matches {
		index[plan.Matches[i].BracketSlot] = i
	}
	for i := range plan.Matches {
		m := &plan.Matches[i]
		if !m.Bye {
			continue
		}
		player := m.P1
		if player.Bye {
			player = m.P2
		}
		m.Winner = player.PlayerID
		plan.seat(index, m.WinnerTo, player)
	}
	return plan
}

// seat puts the player of from into the seat ref points at, if any.
func (p *BracketPlan) seat(index map[string]int, ref SeatRef, from BracketSeat) {
	if ref.BracketSlot == "" {
		return
	}
	m := &p.Matches[index[ref.BracketSlot]]
	to := &m.P1
	if ref.Side == 2 {
		to = &m.P2
	}
	to.PlayerID, to.Seed = from.PlayerID, from.Seed
}
