package core

// maximumMatching returns a maximum matching of the graph on n vertices
// whose edges are the pairs edge reports, by Edmonds' blossom algorithm
// (O(n³)): mate[v] is v's partner, or -1. The Swiss pairing uses it to
// decide whether the players left can all still be paired, which a
// search in ranking order cannot always tell quickly.
func maximumMatching(n int, edge func(a, b int) bool) []int {
	mate := make([]int, n)
	for i := range mate {
		mate[i] = -1
	}
	// A greedy start leaves few vertices to augment from.
	for a := 0; a < n; a++ {
		for b := a + 1; b < n && mate[a] < 0; b++ {
			if mate[b] < 0 && edge(a, b) {
				mate[a], mate[b] = b, a
			}
		}
	}
	m := blossomSearch{n: n, edge: edge, mate: mate, parent: make([]int, n), base: make([]int, n),
		used: make([]bool, n), blossom: make([]bool, n), queue: make([]int, 0, n)}
	for v := 0; v < n; v++ {
		if mate[v] < 0 {
			m.augment(v)
		}
	}
	return mate
}

// blossomSearch is the state of one augmenting-path search.
type blossomSearch struct {
	n       int
	edge    func(a, b int) bool
	mate    []int
	parent  []int
	base    []int
	used    []bool
	blossom []bool
	queue   []int
}

// augment grows alternating trees from root and flips the first
// augmenting path it finds; it reports whether it found one.
func (m *blossomSearch) augment(root int) bool {
	for i := 0; i < m.n; i++ {
		m.used[i], m.parent[i], m.base[i] = false, -1, i
	}
	m.used[root] = true
	m.queue = append(m.queue[:0], root)
	for qi := 0; qi < len(m.queue); qi++ {
		v := m.queue[qi]
		for to := 0; to < m.n; to++ {
			if to == v || !m.edge(v, to) || m.base[v] == m.base[to] || m.mate[v] == to {
				continue
			}
			if to == root || (m.mate[to] >= 0 && m.parent[m.mate[to]] >= 0) {
				m.contract(v, to)
				continue
			}
			if m.parent[to] >= 0 {
				continue
			}
			m.parent[to] = v
			if m.mate[to] < 0 {
				for u := to; u >= 0; {
					pv := m.parent[u]
					next := m.mate[pv]
					m.mate[u], m.mate[pv] = pv, u
					u = next
				}
				return true
			}
			m.used[m.mate[to]] = true
			m.queue = append(m.queue, m.mate[to])
		}
	}
	return false
}

// contract shrinks the odd cycle closed by the edge v-to into its base.
func (m *blossomSearch) contract(v, to int) {
	b := m.commonBase(v, to)
	for i := range m.blossom {
		m.blossom[i] = false
	}
	m.markPath(v, b, to)
	m.markPath(to, b, v)
	for i := 0; i < m.n; i++ {
		if m.blossom[m.base[i]] {
			m.base[i] = b
			if !m.used[i] {
				m.used[i] = true
				m.queue = append(m.queue, i)
			}
		}
	}
}

func (m *blossomSearch) commonBase(a, b int) int {
	seen := make([]bool, m.n)
	for {
		a = m.base[a]
		seen[a] = true
		if m.mate[a] < 0 {
			break
		}
		a = m.parent[m.mate[a]]
	}
	for {
		b = m.base[b]
		if seen[b] {
			return b
		}
		b = m.parent[m.mate[b]]
	}
}

func (m *blossomSearch) markPath(v, b, child int) {
	for m.base[v] != b {
		m.blossom[m.base[v]], m.blossom[m.base[m.mate[v]]] = true, true
		m.parent[v] = child
		child = m.mate[v]
		v = m.parent[m.mate[v]]
	}
}
