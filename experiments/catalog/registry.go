package catalog

func init() {
	registry = []Experiment{
		fillExperiment,
		bitsExperiment,
		hashesExperiment,
		smallMExperiment,
		hashingExperiment,
		countingExperiment,
		scalableExperiment,
		memoryExperiment,
		speedExperiment,
		selfExperiment,
		blockingExperiment,
		cardinalityExperiment,
		adversaryExperiment,
		growthExperiment,
		windowExperiment,
		boostExperiment,
	}
}
