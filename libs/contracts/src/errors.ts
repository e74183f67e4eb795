/** One problem with a request: `field` is a dotted path into the body, a header name, or `root`. */
export interface ErrorItem {
  field: string;
  detail: string;
}

/** The only error body the API ever writes. */
export interface ErrorBody {
  errors: ErrorItem[];
}

/** Every success wraps its result in `data`. */
export interface DataBody<T> {
  data: T;
}
