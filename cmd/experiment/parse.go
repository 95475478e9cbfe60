package main

import "github.com/bloomlab/bloomlab/analysis"

func parseCount(s string) (uint64, error)        { return analysis.ParseCount(s) }
func parseProbability(s string) (float64, error) { return analysis.ParseProbability(s) }
