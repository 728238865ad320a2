//! Evidence that the Rolit engine follows the rules.
