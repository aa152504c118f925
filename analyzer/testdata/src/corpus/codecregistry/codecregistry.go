// Package codecregistry follows google.golang.org/grpc/encoding's codec
// registry: a package-level map from content subtype to Codec (an
// interface), filled by RegisterCodec, which "must only be called during
// initialization time (i.e. in an init() function), and is not
// thread-safe", and read by GetCodec on every request.
//
// The codecs are registered by the set-up rather than by init: fencecheck
// does not run a package initialisation that branches on an interface
// value (RegisterCodec's nil check). They are pointers, as an empty struct
// in an interface stored in memory is refused.
//
// Expected, by hand: serveRequests is correct and race-free: the set-up
// registers the codecs, then two request goroutines only look them up
// (reads of a map nobody writes any more do not race) and call them
// through the interface. The mutant lazyRegister registers a codec from a
// request goroutine, the first time it needs it, while the other request
// looks up its own: the map's write races with the lookup (Go's
// "concurrent map read and map write"), whatever the two keys are.
package codecregistry

import "sync"

// Codec encodes values for one content subtype.
type Codec interface {
	Marshal(v int32) (int32, error)
	Name() string
}

var registeredCodecs = make(map[string]Codec)

// RegisterCodec makes codec available under its name. Not thread-safe:
// call it from init.
func RegisterCodec(codec Codec) {
	if codec == nil {
		panic("cannot register a nil Codec")
	}
	if codec.Name() == "" {
		panic("cannot register Codec with empty string result for Name()")
	}
	registeredCodecs[codec.Name()] = codec // want `^race: go@\d+ stores registeredCodecs here while go@\d+ loads registeredCodecs at codecregistry\.go:\d+:\d+, and nothing orders the two \(system lazyRegister\)`
}

// GetCodec returns the codec of contentSubtype, or nil.
func GetCodec(contentSubtype string) Codec {
	return registeredCodecs[contentSubtype]
}

type protoCodec struct{}

func (*protoCodec) Marshal(v int32) (int32, error) { return v + 1, nil }
func (*protoCodec) Name() string                   { return "proto" }

type jsonCodec struct{}

func (*jsonCodec) Marshal(v int32) (int32, error) { return 2 * v, nil }
func (*jsonCodec) Name() string                   { return "json" }

// handle encodes v with the codec of contentSubtype, as a server's
// stream does for each message.
func handle(contentSubtype string, v int32) int32 {
	c := GetCodec(contentSubtype)
	if c == nil {
		return -1
	}
	out, err := c.Marshal(v)
	if err != nil {
		return -1
	}
	return out
}

//fencecheck:system
func serveRequests() {
	RegisterCodec(&protoCodec{})
	RegisterCodec(&jsonCodec{})
	var out [2]int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		out[0] = handle("proto", 3)
	}()
	go func() {
		defer wg.Done()
		out[1] = handle("json", 3)
	}()
	wg.Wait()
	if out[0] != 4 || out[1] != 6 {
		panic("wrong codec")
	}
}

//fencecheck:system
func lazyRegister() {
	RegisterCodec(&protoCodec{})
	var out [2]int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		out[0] = handle("proto", 3)
	}()
	go func() {
		defer wg.Done()
		if GetCodec("json") == nil {
			RegisterCodec(&jsonCodec{})
		}
		out[1] = handle("json", 3)
	}()
	wg.Wait()
}
