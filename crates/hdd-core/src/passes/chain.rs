//! Chains of nested nodes (deep nesting: `[[[[x]]]]`, an object in an object in …):
//! what the passes that walk along them share.

/// Whether a link of a chain of nested nodes, `distance` links below the chain's top, is
/// deep enough in it to be left to the links 1, 2, 4, … of the chain by hoisting and
/// token windows: each would otherwise cost a failing test per level when the test
/// needs the nesting (a parser's recursion limit over a 1,000-deep JSON), while HDD's
/// binary search already found how much of the chain can go. The first links all
/// stay: nesting people write is rarely this deep.
pub(super) fn far_link(distance: usize) -> bool {
    distance >= NEAR_LINKS && !distance.is_power_of_two()
}

/// How many links below a chain's top [`far_link`] leaves alone.
const NEAR_LINKS: usize = 32;
