"""The learner's pages, one module per capability: dashboard, plan, study (phase pages and the
tick), review, practice (drills and mocks), account. Every query starts from request.user."""
