"""Writes to a learner's rows, one module per capability. Each public function is keyword-only
and one transaction (``transaction.atomic``): one learner action, one commit."""
