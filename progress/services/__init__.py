"""Writes to a learner's rows, one module per capability. Each public function is keyword-only
and decorated with studyplan.caching.moves_learner, so the learner's cached pages follow."""
