import { publicSourceName } from './public-source';

// Finding 9: lists open to guests showed `file:///…/artifacts/sources/…` and the like.
describe('publicSourceName', () => {
  it.each([
    // Files on the server, by path or URL: the file name only.
    ['/srv/svc/data/goa/goa_human.gaf.gz', 'goa_human.gaf.gz'],
    ['data/go-basic.obo', 'go-basic.obo'],
    [
      'file:///var/lib/svc/artifacts/sources/9a1f0c4e-2b7d-4e8a-b3c5-6d0e1f2a3b4c/go%20basic.obo',
      'go basic.obo',
    ],
    ['C:\\data\\go.obo', 'go.obo'],
    ['/srv/ia.tsv?v=1#x', 'ia.tsv'],
    // Artifact-store and other internal URIs.
    ['s3://svc-artifacts/rerankers/run-1/model.txt', 'model.txt'],
    ['s3://svc-artifacts', 'source'],
    // http(s) to a private address or name: nothing of the address.
    ['http://127.0.0.1:8080/goa/tiny.gaf?token=t', 'tiny.gaf'],
    ['http://10.1.2.3/mirror/go.obo', 'go.obo'],
    ['http://[::1]/go.obo', 'go.obo'],
    ['http://2130706433/go.obo', 'go.obo'],
    ['http://mirror/go.obo', 'go.obo'],
    ['https://files.corp/go.obo', 'go.obo'],
    ['http://goa.svc.cluster.internal/a.gaf', 'a.gaf'],
    ['http://192.168.1.1/', 'source'],
  ])('names %s as %s', (source, name) => expect(publicSourceName(source)).toBe(name));

  it.each([
    ['https://purl.obolibrary.org/obo/go/go-basic.obo', 'https://purl.obolibrary.org/obo/go/go-basic.obo'],
    // Credentials, fragments and secret-looking parameters go; the others stay, in order.
    [
      'https://alice:hunter2@ftp.example.org/pub/goa.gaf.gz?taxon=9606&token=x&X-Amz-Signature=y#top',
      'https://ftp.example.org/pub/goa.gaf.gz?taxon=9606',
    ],
    [
      'https://www.ebi.ac.uk/QuickGO/services/annotation/search?limit=100&taxonId=9606&api_key=k&sig=s&page=2',
      'https://www.ebi.ac.uk/QuickGO/services/annotation/search?limit=100&taxonId=9606&page=2',
    ],
    ['http://8.8.8.8:8080/x.obo?access_token=a&Password=p&session=s', 'http://8.8.8.8:8080/x.obo'],
  ])('keeps the public URL %s as %s', (source, shown) => expect(publicSourceName(source)).toBe(shown));

  it('treats the hosts it is told are private (SVC_SOURCE_ALLOWED_HOSTS) like private addresses', () => {
    const privateHosts = new Set(['mirror.example.org']);
    expect(publicSourceName('https://Mirror.Example.org/goa/x.gaf', { privateHosts })).toBe('x.gaf');
    expect(publicSourceName('https://other.example.org/goa/x.gaf', { privateHosts })).toBe(
      'https://other.example.org/goa/x.gaf',
    );
  });
});
