package explore

// KeySet is the visited set of the search, for searches over other state
// spaces (the abstract states of engines/coherence): it maps byte keys to
// ids given in the order of insertion (0, 1, ...), and keeps the keys back
// to back in large chunks, so that a state costs its key and about 16
// bytes. It is not safe for concurrent use.
type KeySet struct{ s *stateSet }

// NewKeySet returns an empty set.
func NewKeySet() *KeySet { return &KeySet{s: newStateSet()} }

// Len returns the number of keys in the set.
func (k *KeySet) Len() int { return k.s.len() }

// Key returns the key of id; the caller must not modify it.
func (k *KeySet) Key(id int) []byte { return k.s.key(id) }

// Add returns the id of key and whether it was added by this call: the
// id of a key already in the set is returned unchanged. It fails when the
// set cannot take another key.
func (k *KeySet) Add(key []byte) (int, bool, error) {
	h := k.s.hash(key)
	if id := k.s.findHash(key, h); id >= 0 {
		return id, false, nil
	}
	id, err := k.s.insertHash(key, h)
	return id, err == nil, err
}
