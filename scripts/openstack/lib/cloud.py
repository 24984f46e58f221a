"""Health checks and seed data through the cloud's own APIs (keystoneauth1, as an operator's client).

    cloud.py ready <n>  exit 0 when n computes (+ conductor and scheduler) report up, n hypervisors
                        are listed and Placement holds n providers with inventory; else prints what
                        is missing, exit 3 when only hypervisors are (cells v2 discovery is due)
    cloud.py seed             the image `placid-tiny` and the flavors placid.small/.medium/.large
"""
import os
import sys

from keystoneauth1 import session
from keystoneauth1.identity import v3

ADMIN = v3.Password(auth_url=os.environ['KEYSTONE_URL'], username='admin', password=os.environ['PW'],
                    project_name='admin', user_domain_id='default', project_domain_id='default')
SESSION = session.Session(auth=ADMIN)
FLAVORS = {'placid.small': (1, 512, 1), 'placid.medium': (2, 2048, 10), 'placid.large': (4, 8192, 20)}


def get(service, path, microversion=None):
    return SESSION.get(path, endpoint_filter={'service_type': service, 'interface': 'public'},
                       microversion=microversion, timeout=20).json()


def seed():
    flavors = {f['name'] for f in get('compute', '/flavors')['flavors']}
    for name, (vcpus, ram, disk) in FLAVORS.items():
        if name not in flavors:
            SESSION.post('/flavors', endpoint_filter={'service_type': 'compute'}, timeout=20,
                         json={'flavor': {'name': name, 'vcpus': vcpus, 'ram': ram, 'disk': disk}})
    if not get('image', '/v2/images?name=placid-tiny')['images']:
        image = SESSION.post('/v2/images', endpoint_filter={'service_type': 'image'}, timeout=20,
                             json={'name': 'placid-tiny', 'disk_format': 'raw', 'container_format': 'bare',
                                   'visibility': 'public'}).json()
        SESSION.put(f"/v2/images/{image['id']}/file", endpoint_filter={'service_type': 'image'}, timeout=60,
                    data=b'\0' * 1048576, headers={'Content-Type': 'application/octet-stream'})


def missing(computes):
    """What keeps the cloud from being ready, with the exit status to give."""
    up = sum(1 for s in get('compute', '/os-services')['services'] if s['state'] == 'up')
    if up < computes + 2:
        return f'{up} of {computes + 2} nova services up', 1
    hypervisors = len(get('compute', '/os-hypervisors')['hypervisors'])
    if hypervisors < computes:
        return f'{hypervisors} of {computes} hypervisors mapped to a cell', 3
    providers = get('placement', '/resource_providers')['resource_providers']
    stocked = sum(1 for p in providers if get('placement', f"/resource_providers/{p['uuid']}/inventories")['inventories'])
    if stocked < computes:
        return f'{stocked} of {computes} resource providers with inventory', 1
    return None, 0


def main():
    if sys.argv[1] == 'seed':
        return seed()
    reason, status = missing(int(sys.argv[2]))
    if reason:
        print(reason)
    sys.exit(status)


if __name__ == '__main__':
    main()
