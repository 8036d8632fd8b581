package i18n

import (
	"strconv"
	"time"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/feature/plural"
	"golang.org/x/text/message"
	"golang.org/x/text/number"
)

// Number is n as the locale writes it, grouped by CLDR's rules:
// "12,345", "12.345", "12 345".
func (t *Tr) Number(n int) string {
	if n > -1000 && n < 1000 {
		return strconv.Itoa(n)
	}
	return message.NewPrinter(t.tag).Sprint(number.Decimal(n))
}

// ordinalForms are the ordinal message ids by CLDR's ordinal plural
// form: "ordinal.one" is English's 1st, 21st; "ordinal.other" is every
// locale's fallback.
var ordinalForms = map[plural.Form]string{
	plural.Zero: "ordinal.zero", plural.One: "ordinal.one", plural.Two: "ordinal.two",
	plural.Few: "ordinal.few", plural.Many: "ordinal.many", plural.Other: "ordinal.other",
}

// Ordinal is a place as the locale writes it: "1st", "1.", "1er", "第1位".
func (t *Tr) Ordinal(n int) string {
	form := plural.Ordinal.MatchPlural(t.tag, n, 0, 0, 0, 0)
	id := ordinalForms[form]
	if form != plural.Other && !t.has(id) {
		id = "ordinal.other"
	}
	return t.T(id, "N", t.Number(n))
}

// has reports whether the locale's own catalog (not English's) holds id.
func (t *Tr) has(id string) bool {
	_, err := t.loc.Localize(&goi18n.LocalizeConfig{MessageID: id})
	return err == nil
}

// Date is t's day in UTC as the locale writes it: "27 Nov 2026",
// "27. Nov. 2026", "2026年11月27日" (the page's script writes it again in
// the viewer's zone, in the same shape, with Intl).
func (t *Tr) Date(at time.Time) string {
	at = at.UTC()
	return t.T("time.date", "D", at.Day(), "M", int(at.Month()), "Mon", t.T("time.month."+strconv.Itoa(int(at.Month()))), "Y", at.Year())
}

// Clock is t's time of day in UTC, 24-hour: "15:00".
func (t *Tr) Clock(at time.Time) string { return at.UTC().Format("15:04") }

// Time is t in UTC with its day and the zone named: "27 Nov 2026, 15:00
// UTC" in English.
func (t *Tr) Time(at time.Time) string {
	return t.T("time.full", "Date", t.Date(at), "Clock", t.Clock(at), "Zone", "UTC")
}
