package storagestate

import "testing"

func TestStatesEqual(t *testing.T) {
	yes, no := true, false
	yes2 := true
	base := func() State {
		return State{
			Cookies: []Cookie{{Name: "sid", Value: "1", Domain: "a.test", Path: "/", Expires: -1, SameSite: "Lax"},
				{Name: "p", Value: "2", Domain: "b.test", Path: "/", Expires: 5, SameSite: "None", Secure: true, PartitionKey: "https://c.test", CrossSiteAncestor: &yes}},
			Origins: []Origin{{Origin: "https://a.test", LocalStorage: []Item{{Name: "token", Value: "t"}}}},
		}
	}
	same := base()
	same.Cookies[1].CrossSiteAncestor = &yes2 // another pointer to the same value
	if !base().Equal(same) {
		t.Error("equal states found different")
	}
	if !(State{}).Equal(State{Cookies: []Cookie{}, Origins: []Origin{}}) {
		t.Error("nothing and empty lists found different")
	}
	for name, change := range map[string]func(*State){
		"a cookie's value":           func(s *State) { s.Cookies[0].Value = "9" },
		"a cookie's expiry":          func(s *State) { s.Cookies[0].Expires = 7 },
		"hasCrossSiteAncestor":       func(s *State) { s.Cookies[1].CrossSiteAncestor = &no },
		"hasCrossSiteAncestor unset": func(s *State) { s.Cookies[1].CrossSiteAncestor = nil },
		"a cookie fewer":             func(s *State) { s.Cookies = s.Cookies[:1] },
		"an item's value":            func(s *State) { s.Origins[0].LocalStorage[0].Value = "u" },
		"an item more":               func(s *State) { s.Origins[0].LocalStorage = append(s.Origins[0].LocalStorage, Item{Name: "x"}) },
		"another origin":             func(s *State) { s.Origins[0].Origin = "https://b.test" },
		"no origins":                 func(s *State) { s.Origins = nil },
	} {
		other := base()
		change(&other)
		if base().Equal(other) || other.Equal(base()) {
			t.Errorf("states differing by %s found equal", name)
		}
	}
}
