// A floor of bench:startup: the request `chamberctl chambers list` makes (an authorised GET,
// the body to stdout), written with node's own http module and nothing else: no library, no
// config file, no code cache. What any HTTP command on Node 20 pays, however it is written.
import { get } from 'node:http';

get(process.env.FLOOR_URL!, { headers: { authorization: `Bearer ${process.env.FLOOR_TOKEN}` } }, (res) => {
  if (res.statusCode !== 200) process.exitCode = 1;
  res.pipe(process.stdout);
});
