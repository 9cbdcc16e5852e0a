//! Footlights: an actor runtime (being built).
