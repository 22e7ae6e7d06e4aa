package io.quotaflow.source;

/**
 * The page size of the informers' lists (issue 40.3). Without a limit an informer's first list (and
 * every relist) is one response holding every object: 100,000 pods are about a gigabyte of JSON
 * that the API server builds and the connectors read whole. With it the list comes in pages joined
 * by continue tokens, as kubectl and client-go list, and neither side holds more than a page.
 */
final class ListPaging {

  /** Objects per page: client-go's pager default. */
  static final long PAGE_SIZE = 500;

  private ListPaging() {}
}
