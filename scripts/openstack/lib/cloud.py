"""Health checks and seed data through the cloud's own APIs (keystoneauth1, as an operator's client).

    cloud.py services <n>     exit 0 when n nova services (binary nova-*) report up
    cloud.py hypervisors <n>  exit 0 when n hypervisors are listed
    cloud.py providers <n>    exit 0 when Placement holds n resource providers with inventory
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


def main():
    what = sys.argv[1]
    if what == 'seed':
        return seed()
    want = int(sys.argv[2])
    if what == 'services':
        have = sum(1 for s in get('compute', '/os-services')['services'] if s['state'] == 'up')
    elif what == 'hypervisors':
        have = len(get('compute', '/os-hypervisors')['hypervisors'])
    else:
        providers = get('placement', '/resource_providers')['resource_providers']
        have = sum(1 for p in providers
                   if get('placement', f"/resource_providers/{p['uuid']}/inventories")['inventories'])
    sys.exit(0 if have >= want else 1)


if __name__ == '__main__':
    main()
