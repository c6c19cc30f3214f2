"""Writes to a learner's rows, one module per capability. Each public function is keyword-only
and decorated with studyplan.caching.moves_learner (or, for a one-statement write, hands it to
studyplan.caching.write_retiring), so the learner's cached pages follow."""
