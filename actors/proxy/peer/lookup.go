package peer

import "net/netip"

// lookup says who holds the socket at peer connected to ours (the
// listener's address): the user, or ErrPeerUnknown when no process holds
// it any more. Each system has its own (lookup_<os>.go), chosen by
// newLookup when a listener is wrapped.
type lookup func(peer, ours netip.AddrPort) (User, error)
