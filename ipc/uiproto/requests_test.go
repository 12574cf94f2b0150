package uiproto

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// A query is bounded whatever the UI process sends: its search text, its
// page size and how far it pages.
func TestHistoryQueryBounded(t *testing.T) {
	long := strings.Repeat("é", MaxHistorySearchBytes) // two bytes each: the cut falls inside one at an odd bound
	for _, tc := range []struct {
		name string
		in   HistoryQuery
		want HistoryQuery
	}{
		{"within", HistoryQuery{Req: 1, Search: "x", Offset: 5, Limit: 10}, HistoryQuery{Req: 1, Search: "x", Offset: 5, Limit: 10}},
		{"no limit", HistoryQuery{Limit: 0}, HistoryQuery{Limit: 1}},
		{"huge limit", HistoryQuery{Limit: 1 << 30}, HistoryQuery{Limit: MaxHistoryPage}},
		{"negative offset", HistoryQuery{Offset: -4, Limit: 1}, HistoryQuery{Limit: 1}},
		{"far offset", HistoryQuery{Offset: 1 << 40, Limit: 1}, HistoryQuery{Offset: MaxHistoryOffset, Limit: 1}},
		{"long search", HistoryQuery{Search: "a" + long, Limit: 1}, HistoryQuery{Search: ("a" + long)[:MaxHistorySearchBytes-1], Limit: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.in.Bounded()
			if got != tc.want {
				t.Errorf("Bounded() = %+v, want %+v", got, tc.want)
			}
			if !utf8.ValidString(got.Search) || len(got.Search) > MaxHistorySearchBytes {
				t.Errorf("search %q: not valid UTF-8 within %d bytes", got.Search, MaxHistorySearchBytes)
			}
		})
	}
}

// Every request has its response, and each side's table knows its own
// (a request is an event, a response a command).
func TestRequestsHaveResponses(t *testing.T) {
	pairs := []struct {
		req  Request
		resp Response
	}{
		{HistoryQuery{Req: 1}, HistoryPage{Req: 1}},
		{HistoryImagesQuery{Req: 2}, HistoryImages{Req: 2}},
		{SettingsQuery{Req: 3}, SettingsFile{Req: 3}},
		{SaveSettings{Req: 4}, SettingsSaved{Req: 4}},
	}
	for _, p := range pairs {
		if p.req.RequestID() != p.resp.RequestID() {
			t.Errorf("%s %d answered by %s %d", p.req.Type(), p.req.RequestID(), p.resp.Type(), p.resp.RequestID())
		}
		if _, ok := events[p.req.Type()]; !ok {
			t.Errorf("the app cannot decode %s", p.req.Type())
		}
		if _, ok := commands[p.resp.Type()]; !ok {
			t.Errorf("the UI process cannot decode %s", p.resp.Type())
		}
	}
}
