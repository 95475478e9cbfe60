package variants

import (
	"sync"

	"github.com/bloomlab/bloomlab/analysis"
)

// stageCache keeps the geometry of the blocked stages that scalable
// filters have sized, by parameters and stage number, for every filter of
// the program: sizing a blocked stage (analysis.BlockedSizer) costs
// about as much as a few thousand adds, and filters made with the same
// parameters have the same stages. The geometry is a pure function of
// its key, so the cache changes no filter, only how soon it is built.
// It holds at most stageCacheSize stages and starts afresh when full.
var stageCache struct {
	sync.Mutex
	m map[stageKey]analysis.Stage
}

// stageCacheSize bounds the stages stageCache holds: a few hundred
// kilobytes at most.
const stageCacheSize = 4096

type stageKey struct {
	geom  analysis.Scalable
	stage int
}

// cachedStage returns the cached geometry of stage i of geom, if any.
func cachedStage(geom analysis.Scalable, i int) (analysis.Stage, bool) {
	stageCache.Lock()
	defer stageCache.Unlock()
	st, ok := stageCache.m[stageKey{geom, i}]
	return st, ok
}

// keepStage caches st as the geometry of stage i of geom.
func keepStage(geom analysis.Scalable, i int, st analysis.Stage) {
	stageCache.Lock()
	defer stageCache.Unlock()
	if stageCache.m == nil || len(stageCache.m) >= stageCacheSize {
		stageCache.m = make(map[stageKey]analysis.Stage)
	}
	stageCache.m[stageKey{geom, i}] = st
}

// clearStageCache empties stageCache (for benchmarks of a program's first
// filter).
func clearStageCache() {
	stageCache.Lock()
	defer stageCache.Unlock()
	stageCache.m = nil
}
