package server

import "testing"

func TestVersionedCache(t *testing.T) {
	size := func(s string) int { return len(s) }
	c := newVersionedCache[uint64](3, 10, size)
	c.put("a", 1, "aaaa")
	if v, ok := c.get("a", 1); !ok || v != "aaaa" {
		t.Fatalf("get a at 1 = %q, %v; want aaaa", v, ok)
	}
	if _, ok := c.get("a", 2); ok {
		t.Fatal("an entry read at version 1 was good at version 2")
	}
	if _, ok := c.get("b", 1); ok {
		t.Fatal("a missing key was found")
	}
	// Replacing a key counts its bytes once.
	c.put("a", 2, "aaaaa")
	c.put("b", 2, "bbbbb")
	if _, ok := c.get("a", 2); !ok {
		t.Fatal("10 bytes in a 10-byte budget started over")
	}
	// One byte over the budget starts over.
	c.put("c", 2, "c")
	if _, ok := c.get("a", 2); ok {
		t.Fatal("the byte budget was exceeded without starting over")
	}
	if v, ok := c.get("c", 2); !ok || v != "c" {
		t.Fatalf("the entry that started over the cache = %q, %v", v, ok)
	}
	// A value larger than the whole budget is not kept, and keeps the rest.
	c.put("huge", 2, "hhhhhhhhhhh")
	if _, ok := c.get("huge", 2); ok {
		t.Fatal("a value over the whole budget was kept")
	}
	if _, ok := c.get("c", 2); !ok {
		t.Fatal("an oversize value cleared the cache")
	}
	// The entry count bounds a cache without a byte budget.
	n := newVersionedCache[uint64, int](2, 0, nil)
	n.put("x", 1, 1)
	n.put("y", 1, 2)
	n.put("z", 1, 3)
	if _, ok := n.get("x", 1); ok {
		t.Fatal("three entries kept in a cache of two")
	}
	if v, ok := n.get("z", 1); !ok || v != 3 {
		t.Fatalf("z = %d, %v", v, ok)
	}
}
