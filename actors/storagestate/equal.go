package storagestate

import "slices"

// Equal says two states hold the same cookies and localStorage, in the
// same order (Sort puts them in one): what a world keeps is compared with
// what it last saved on every read, without encoding either.
func (s State) Equal(o State) bool {
	return slices.EqualFunc(s.Cookies, o.Cookies, Cookie.equal) &&
		slices.EqualFunc(s.Origins, o.Origins, func(a, b Origin) bool {
			return a.Origin == b.Origin && slices.Equal(a.LocalStorage, b.LocalStorage)
		})
}

func (c Cookie) equal(o Cookie) bool {
	same := c.CrossSiteAncestor == o.CrossSiteAncestor ||
		(c.CrossSiteAncestor != nil && o.CrossSiteAncestor != nil && *c.CrossSiteAncestor == *o.CrossSiteAncestor)
	c.CrossSiteAncestor, o.CrossSiteAncestor = nil, nil
	return same && c == o
}
