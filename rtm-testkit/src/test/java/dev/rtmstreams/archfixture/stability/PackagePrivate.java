package dev.rtmstreams.archfixture.stability;

/** Fixture: a package-private type, which needs no mark. */
final class PackagePrivate {}
