"""Creates the service project, the service users (admin in it) and the catalog: idempotent.

    catalog.py <keystone url> <password> <user>=<service type>=<endpoint url>...
"""
import sys

from keystoneauth1 import session
from keystoneauth1.identity import v3
from keystoneclient.v3 import client


def main():
    url, password = sys.argv[1], sys.argv[2]
    auth = v3.Password(auth_url=url, username='admin', password=password, project_name='admin',
                       user_domain_id='default', project_domain_id='default')
    ks = client.Client(session=session.Session(auth=auth))
    project = next(iter(ks.projects.list(name='service', domain='default')), None) \
        or ks.projects.create('service', 'default', description='OpenStack service users')
    admin = ks.roles.list(name='admin')[0]
    # A user without admin rights, for the 403 tests: member of its own project.
    member = next(iter(ks.roles.list(name='member')), None) or ks.roles.create('member')
    demo = next(iter(ks.projects.list(name='demo', domain='default')), None) \
        or ks.projects.create('demo', 'default', description='a project without admin rights')
    user = next(iter(ks.users.list(name='demo', domain='default')), None) \
        or ks.users.create('demo', domain='default', password=password)
    ks.roles.grant(member, user=user.id, project=demo.id)
    for arg in sys.argv[3:]:
        name, service_type, endpoint = arg.split('=', 2)
        user = next(iter(ks.users.list(name=name, domain='default')), None) \
            or ks.users.create(name, domain='default', password=password)
        ks.roles.grant(admin, user=user.id, project=project.id)
        service = next(iter(ks.services.list(type=service_type)), None) or ks.services.create(name, type=service_type)
        have = {e.interface for e in ks.endpoints.list(service=service)}
        for interface in ('public', 'internal', 'admin'):
            if interface not in have:
                ks.endpoints.create(service, endpoint, interface=interface, region='RegionOne')
        print(f'{service_type:10} {endpoint}')


if __name__ == '__main__':
    main()
