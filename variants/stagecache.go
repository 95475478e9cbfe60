package variants

import (
	"sync"

	"github.com/bloomlab/bloomlab/analysis"
)

// stageCache keeps the geometry of the blocked stages that scalable
// filters have sized, by parameters and stage number, for every filter of
// the program: sizing a blocked stage costs about as much as a few
// thousand adds, and filters made with the same parameters have the same
// stages. The stages it has not seen are sized with one
// analysis.BlockedSizer per block size, shared by every filter, whose
// inner rates serve the stages of any filter with that block size (they
// depend on the block size, the hashes and the load only). The geometry
// is a pure function of its key, so the cache changes no filter, only how
// soon it is built. It holds at most stageCacheSize stages and starts
// afresh, sizers included, when full.
var stageCache struct {
	sync.Mutex
	m      map[stageKey]analysis.Stage
	sizers map[uint64]*analysis.BlockedSizer
}

// stageCacheSize bounds the stages stageCache holds: a few hundred
// kilobytes at most. A sizer's inner rates take about 150 KB after the
// 14 stages of a filter at P = 0.01 with 512-bit blocks (90 KB at
// P = 1e-4).
const stageCacheSize = 4096

type stageKey struct {
	geom  analysis.Scalable
	stage int
}

// keepLocked caches st as the geometry of stage i of geom; the caller
// holds stageCache's lock.
func keepLocked(geom analysis.Scalable, i int, st analysis.Stage) {
	if stageCache.m == nil || len(stageCache.m) >= stageCacheSize {
		stageCache.m = make(map[stageKey]analysis.Stage)
		stageCache.sizers = nil
	}
	stageCache.m[stageKey{geom, i}] = st
}

// blockedStage returns the geometry of stage i of geom, which has blocked
// stages: from stageCache, or sized with the shared BlockedSizer of its
// block size and kept. Filters growing at the same time wait for each
// other's sizing.
func blockedStage(geom analysis.Scalable, i int) (analysis.Stage, error) {
	stageCache.Lock()
	defer stageCache.Unlock()
	if st, ok := stageCache.m[stageKey{geom, i}]; ok {
		return st, nil
	}
	z := stageCache.sizers[geom.BlockBits]
	if z == nil {
		if stageCache.sizers == nil {
			stageCache.sizers = make(map[uint64]*analysis.BlockedSizer)
		}
		z = analysis.NewBlockedSizer(geom.BlockBits)
		stageCache.sizers[geom.BlockBits] = z
	}
	st, err := geom.StageWith(i, z)
	if err != nil {
		return analysis.Stage{}, err
	}
	keepLocked(geom, i, st)
	return st, nil
}

// clearStageCache empties stageCache and drops its sizers (for
// benchmarks of a program's first filter).
func clearStageCache() {
	stageCache.Lock()
	defer stageCache.Unlock()
	stageCache.m = nil
	stageCache.sizers = nil
}
