package worlds

// request is what the actor's mailbox carries: a closed set, the types
// below and no others. handle has a case for each (its own or in the
// handlers it chains), and ends in actor.Unknown.
type request interface{ isWorldsRequest() }

// actor.go
func (openWorld) isWorldsRequest()       {}
func (contextMade) isWorldsRequest()     {}
func (contextDisposed) isWorldsRequest() {}
func (closePages) isWorldsRequest()      {}
func (listTargets) isWorldsRequest()     {}
func (newPage) isWorldsRequest()         {}
func (clientJoined) isWorldsRequest()    {}
func (clientLeft) isWorldsRequest()      {}
func (listWorlds) isWorldsRequest()      {}
func (ownerOf) isWorldsRequest()         {}
func (closeWorld) isWorldsRequest()      {}

// page_asks.go
func (pageAsk) isWorldsRequest() {}

// news.go: handleFollowing
func (follow) isWorldsRequest()    {}
func (makeWorld) isWorldsRequest() {}

// storage.go: handleStorage
func (seedWorld) isWorldsRequest()   {}
func (exportWorld) isWorldsRequest() {}
func (forgetWorld) isWorldsRequest() {}
func (keepAll) isWorldsRequest()     {}

// guard.go: handleGuard
func (makeGuarded) isWorldsRequest() {}
func (askPolicy) isWorldsRequest()   {}

// room.go: handleRoom
func (askRoom) isWorldsRequest() {}
