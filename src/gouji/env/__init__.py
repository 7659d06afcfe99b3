"""Learning environments for Gouji, and the features they are built on (:mod:`gouji.env.features`)."""
